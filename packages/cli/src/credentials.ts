/**
 * The session `sandbank login` keeps: the API's URL and the tokens, in the user's config directory
 * (`SANDBANK_CONFIG_DIR`, else the platform's: `$XDG_CONFIG_HOME/sandbank`, `~/Library/Preferences/sandbank`,
 * `%APPDATA%\sandbank\Config`), in a file only its owner can read (mode 600, directory 700).
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import envPaths from 'env-paths';
import { cliEnv } from './env.ts';

/** What is kept; `@sandbank/client`'s session (api.ts) refreshes the tokens and they are written back here. */
export interface SavedSession {
  apiUrl: string;
  email: string;
  accessToken: string;
  refreshToken: string;
}

export const configDir = () => cliEnv.configDir ?? envPaths('sandbank', { suffix: '' }).config;
export const sessionFile = () => path.join(configDir(), 'session.json');

export async function readSession(): Promise<SavedSession | null> {
  try {
    return JSON.parse(await readFile(sessionFile(), 'utf8')) as SavedSession;
  } catch {
    return null;
  }
}

/** Written whole then renamed, created with mode 600 (and chmod'ed, should the file have existed looser). */
export async function writeSession(session: SavedSession): Promise<string> {
  await writePrivate(sessionFile(), `${JSON.stringify(session, null, 2)}\n`);
  return sessionFile();
}

export async function writePrivate(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

export async function readPrivate(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}
