/** Build-time flags of vite.config.ts. */
interface ImportMetaEnv {
  /** True in the production browser build, which runs on preact/compat (docs/decisions/031). */
  readonly BROWSER_PREACT?: boolean;
}
