/** /404 and the catch-all: answers 404 so the root error boundary shows 抱歉，您访问的页面不存在! (spec 01 §2.8). */
import { data } from 'react-router';

export function loader() {
  throw data({ message: 'not found' }, { status: 404 });
}

export default function NotFoundRoute() {
  return null;
}
