/**
 * A multipart form whose body the action forwards to the platform as a stream, never parsed on the gateway: the
 * CSRF token rides in the action URL (`?csrf=`, checked by validateCsrfInUrl in lib/csrf.server.ts), because
 * reading a form field would mean parsing the stream.
 */
import type { ReactNode } from 'react';
import { Form } from 'react-router';
import { useCsrfToken } from './csrf-input.tsx';

/** `action` is the route's path without a query, e.g. `/newAccessCard`. */
export function StreamedUploadForm({
  action,
  className,
  children,
}: {
  action: string;
  className: string;
  children: ReactNode;
}) {
  const csrf = useCsrfToken();
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={`${action}?csrf=${encodeURIComponent(csrf)}`}
      className={className}
      noValidate
    >
      {children}
    </Form>
  );
}
