/**
 * Whether the requesting browser lacks `<details>`, read from its User-Agent by the root loader (`lacksDetails` in
 * notices.tsx): ConfirmAction then uses a `:target` box instead (docs/decisions/030). False, the
 * default, is a current browser.
 */
import { createContext } from 'react';

export const NoDetailsContext = createContext(false);
