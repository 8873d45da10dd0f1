/**
 * Start-up failures as one clear line (stderr) and exit code 1: the cause and the fix, naming the
 * variable to change — never a stack trace. Both processes (API and worker) end through here.
 */
import { ConfigError } from './config.ts';

interface SystemError {
  code?: string;
  address?: string;
  port?: number;
  message?: string;
}

/** The one line that says why the process cannot start, and what to do about it. */
export function startupFailureLine(error: unknown): string {
  if (error instanceof ConfigError) {
    return `${error.message.replace(/^Invalid configuration:\s*/, 'invalid configuration: ').replace(/\n\s*/g, '; ')} (see .env.example)`;
  }
  const system = (error ?? {}) as SystemError;
  const where = system.port !== undefined ? `${system.address ?? ''}:${system.port}` : '';
  switch (system.code) {
    case 'EADDRINUSE':
      return `port ${where} is already in use: stop what listens there, or set PORT (and HOST) to a free one`;
    case 'EACCES':
      if (where) return `no permission to listen on ${where}: set PORT to 1024 or above`;
      break;
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case '28P01': // wrong password
    case '3D000': // no such database
      return `the database at DATABASE_URL cannot be used (${oneLine(system.message) || system.code}): start PostgreSQL, fix DATABASE_URL, or unset it to use the embedded one`;
  }
  return oneLine(error instanceof Error ? error.message : String(error));
}

const oneLine = (text: string | undefined) => (text ?? '').split('\n')[0]?.trim() ?? '';

/** Prints the line as `<process>: cannot start: <line>` and exits 1. */
export function failStartup(processName: string, error: unknown): never {
  process.stderr.write(`${processName}: cannot start: ${startupFailureLine(error)}\n`);
  process.exit(1);
}
