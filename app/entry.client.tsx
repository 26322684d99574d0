/**
 * The browser entry (docs/decisions/031). The production build runs it on Preact's React-compatible layer (see
 * vite.config.ts), which hydrates the page React rendered on the server.
 *
 * React Router's `HydratedRouter` first decodes the server's loader data from the page's inline stream; until that is
 * done its first render throws the decoding promise and React suspends the hydration. Preact suspends only below a
 * Suspense boundary, and there is none above the document, so this entry waits for that promise before hydrating:
 * `HydratedRouter` is called once outside rendering to start the decoding and hand over the promise (it throws it
 * before touching any hook), then the document is hydrated with the data ready.
 *
 * React's server renderer hoists the `<link rel="modulepreload">` elements of `<Scripts>` (rendered at the end of
 * `<body>`) into `<head>`, before the stylesheet `<link>`s. Preact hydrates an element's children by taking, for each
 * element it renders, the first unclaimed child of the same tag, and removes the children left over: the stylesheet
 * link it renders in `<head>` would claim the first modulepreload and the real stylesheets would be removed. The
 * modulepreloads have done their work once this module runs (its imports are loaded), so they are removed first;
 * Preact renders its own where `<Scripts>` stands. The same goes for the `<link rel="preload" as="image">` React
 * hoists for a page's images (a certificate's preview, a capture's screenshots, a seal): the image has started
 * loading, and left in place the link would take the stylesheet's place (decision 049).
 */
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';

/** Resolves once React Router has decoded the server's data (at once if it already has). */
async function serverDataDecoded(): Promise<void> {
  try {
    HydratedRouter({});
  } catch (thrown) {
    if (thrown instanceof Promise) await thrown;
  }
}

/** Removes what React's server renderer moved into `<head>` and Preact would not find there (see above). */
function dropHoistedPreloads(): void {
  for (const link of Array.from(
    document.head.querySelectorAll('link[rel="modulepreload"], link[rel="preload"]'),
  ))
    link.remove();
}

void serverDataDecoded().then(() => {
  if (import.meta.env.BROWSER_PREACT) dropHoistedPreloads();
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
