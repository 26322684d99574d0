/** Pagination by plain links (works without JavaScript): previous, a window of page numbers, next, and the total. */
import { Link } from 'react-router';

export function Pagination({
  page,
  pageSize,
  count,
  href,
}: {
  page: number;
  pageSize: number;
  count: number;
  href: (page: number) => string;
}) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (count === 0) return null;
  const from = Math.max(1, page - 3);
  const to = Math.min(pages, page + 3);
  const numbers = [];
  for (let i = from; i <= to; i++) numbers.push(i);
  return (
    <nav className="pagination" aria-label="分页">
      <span className="total">共 {count} 条</span>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          上一页
        </Link>
      ) : (
        <span className="disabled">上一页</span>
      )}
      {numbers.map((n) =>
        n === page ? (
          <span key={n} className="current" aria-current="page">
            {n}
          </span>
        ) : (
          <Link key={n} to={href(n)}>
            {n}
          </Link>
        ),
      )}
      {page < pages ? (
        <Link to={href(page + 1)} rel="next">
          下一页
        </Link>
      ) : (
        <span className="disabled">下一页</span>
      )}
    </nav>
  );
}
