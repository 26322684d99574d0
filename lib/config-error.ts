/** The platform configuration's one error type (platform/config.ts, platform/config-sms.ts). */

/** Thrown by `loadPlatformConfig` (platform/config.ts); its message names every offending variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
