export { type Config, ConfigError, loadConfig } from './config.ts';
export { createLogger, REDACTED_PATHS } from './logger.ts';
export { SERVER_ENV, SERVER_NODE_FLAGS } from './runtime.ts';
export { resolveSecrets, type Secrets } from './secrets.ts';
export { failStartup, startupFailureLine } from './startup.ts';
