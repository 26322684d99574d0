/**
 * The certificate page of certificate.tsx without the visitor's session and CSRF cookie: the plain bare page whose
 * ratio `npm run bench` prints beside the certificate page row's goal (decision 032). Served as
 * `/plain/attestation/{baoquan}`.
 */
import { certificateData } from '../certificate.server.ts';
import Certificate, { handle, links, meta } from './certificate.tsx';

export { handle, links, meta };
export default Certificate;

export async function loader({ request, params }: { request: Request; params: { baoquan?: string } }) {
  return certificateData(request, params.baoquan ?? '', false);
}
