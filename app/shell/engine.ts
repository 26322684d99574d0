/**
 * What the requesting browser lacks, read from its User-Agent by the root loader (`lacksDetails` in notices.tsx),
 * for the pieces of markup that must still work there: `noDetails` makes ConfirmAction use a `:target` box instead
 * of `<details>` (issue 16 point 4; docs/decisions/030).
 */
import { createContext } from 'react';

/** The engine's gaps; the default is a current browser. */
export interface Engine {
  /** No `<details>`/`<summary>`: IE, EdgeHTML, the stock Android browser before 4.4. */
  noDetails: boolean;
}

export const EngineContext = createContext<Engine>({ noDetails: false });

/** The value for a browser with everything (shared, so the provider's value is stable). */
export const CURRENT_ENGINE: Engine = { noDetails: false };
/** The value for a browser without `<details>`. */
export const NO_DETAILS_ENGINE: Engine = { noDetails: true };
