/**
 * The project's install scripts (scripts/ensure-*.sh) wait for apt's and dpkg's locks instead of
 * failing when another program holds them (issue 47: a fresh-clone CI failed with "Unable to acquire
 * the dpkg frontend lock"). Here a process holds dpkg's frontend lock (an fcntl lock, as apt takes it)
 * for a few seconds: plain apt-get fails at once, `apt_get` of scripts/apt-get-waiting.sh waits and
 * succeeds. As root on Debian only (apt and the lock need both).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const LOCK = '/var/lib/dpkg/lock-frontend';
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const runnable = process.getuid?.() === 0 && has('apt-get') && has('python3');

let holder: ChildProcess | undefined;
afterEach(() => {
  holder?.kill();
  holder = undefined;
});

/** Holds dpkg's frontend lock for `seconds`; resolves once it is held. */
async function holdLock(seconds: number): Promise<void> {
  const script = `import fcntl, time\nf = open(${JSON.stringify(LOCK)}, 'a')\nfcntl.lockf(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(${seconds})\n`;
  const child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  holder = child;
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
}

describe.skipIf(!runnable)('installing while another program holds dpkg’s lock', () => {
  it('plain apt-get fails at once; the scripts’ apt_get waits for the lock and succeeds', { timeout: 60_000 }, async () => {
    await holdLock(4);
    // bash is installed everywhere: the install has nothing to do, but still takes the lock.
    const plain = spawnSync('apt-get', ['-qq', 'install', '-y', 'bash'], { encoding: 'utf8' });
    expect(plain.status).not.toBe(0);
    expect(plain.stderr).toMatch(/lock/);
    const started = performance.now();
    const waited = execFileSync(
      'bash',
      ['-c', `source ${JSON.stringify(path.join(ROOT, 'scripts/apt-get-waiting.sh'))}; apt_get install -y bash; echo done`],
      {
        encoding: 'utf8',
      },
    );
    expect(waited.trim()).toBe('done');
    // It waited for the holder (about 4 s from the lock's start), not failed or skipped it.
    expect(performance.now() - started).toBeGreaterThan(2_000);
  });
});
