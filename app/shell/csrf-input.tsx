/** The hidden CSRF field every mutating form carries; the token comes from the root loader. */
import { useRouteLoaderData } from 'react-router';

export function useCsrfToken(): string {
  const root = useRouteLoaderData('root') as { csrf?: string } | undefined;
  return root?.csrf ?? '';
}

export function CsrfInput() {
  return <input type="hidden" name="csrf" value={useCsrfToken()} />;
}
