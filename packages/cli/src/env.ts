/** The CLI's environment, read in this one place (`SANDBANK_API_URL` is read by commander's `--api-url`). */
export const cliEnv = {
  /** Where the session and resume points live (default: the platform's config directory). */
  configDir: process.env.SANDBANK_CONFIG_DIR,
  /** Where `pnpm sandbank …` was typed: pnpm runs the root script at the root. */
  initCwd: process.env.INIT_CWD,
  email: process.env.SANDBANK_EMAIL,
  password: process.env.SANDBANK_PASSWORD,
  listenSecret: process.env.SANDBANK_LISTEN_SECRET,
  /** A user's API key for `sandbank mcp`, instead of the saved session. */
  apiKey: process.env.SANDBANK_API_KEY,
};
