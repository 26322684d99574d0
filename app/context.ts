/**
 * The load context the gateway (server/app.ts `getLoadContext`) hands to every loader and action.
 * A plain object typed by augmenting AppLoadContext with the gateway's own declaration (a type-only import: nothing
 * of server/ is bundled). A `createContext` token would exist twice (once in the gateway, once inside the bundled
 * server build) and never match; see docs/decisions/003-load-context.md.
 */
import 'react-router';
import type { GatewayLoadContext } from '../server/app.ts';

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends GatewayLoadContext {}
}
