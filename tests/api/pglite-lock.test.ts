import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '@server/db/client';
import { DatabaseInUseError, lockDataDir, procStat } from '@server/db/data-dir-lock';

/**
 * The PGlite lock after a crash (issue 12): a server killed with `kill -9` must restart at once,
 * whether its pid is gone, lingers as a zombie, or was reused by an unrelated process; a live
 * holder of the same directory is still refused with the clear message.
 */
const HOLDER = resolve('tests/api/scripts/hold-lock.ts');
const root = mkdtempSync(join(tmpdir(), 'pglite-lock-'));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Starts `command` and resolves with the pid the lock holder prints once it holds the lock. */
function startHolder(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const pid = /locked (\d+)/.exec(out)?.[1];
      if (pid) done(Number(pid));
    });
    child.on('exit', (code) => fail(new Error(`lock holder exited (${code}) before locking: ${out}`)));
  });
}
const holdLock = (dir: string) => startHolder(process.execPath, ['--import', 'tsx', HOLDER, dir]);

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(check(), what).toBe(true);
};

describe('PGlite data directory lock', () => {
  it('refuses a directory a live process holds, naming it', async () => {
    const dir = join(root, 'live');
    const pid = await holdLock(dir);
    expect(() => lockDataDir(dir)).toThrow(DatabaseInUseError);
    expect(() => lockDataDir(dir)).toThrow(`is in use by process ${pid} (`);
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by process \d+.*stop that process/);
  });

  it('takes over at once after the holder is killed with SIGKILL and reaped', async () => {
    const dir = join(root, 'killed');
    const pid = await holdLock(dir);
    const child = children.at(-1)!;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(pid, 'SIGKILL');
    await exited;
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it('takes over at once after a SIGKILL that left the holder a zombie (its parent never reaps it)', async () => {
    const dir = join(root, 'zombie');
    // `exec sleep` makes sleep the holder's parent: it never waits, so the killed holder stays a zombie.
    const pid = await startHolder('sh', [
      '-c',
      `"${process.execPath}" --import tsx "${HOLDER}" "${dir}" & exec sleep 60`,
    ]);
    process.kill(pid, 'SIGKILL');
    await until(() => procStat(pid)?.state === 'Z', 'the killed holder is a zombie');
    // The whole start-up path, as a restarted server takes it.
    const database = await openDatabase({ dataDir: dir, migrate: false });
    expect(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid).toBe(process.pid);
    await database.close();
    expect(existsSync(`${dir}.lock`)).toBe(false);
  });

  it("takes over a lock naming a live but unrelated process (the crashed server's pid reused)", async () => {
    const dir = join(root, 'reused');
    const sleeper = spawn('sleep', ['60']);
    children.push(sleeper);
    const pid = sleeper.pid!;
    await until(() => procStat(pid) !== null, 'sleep runs');
    // As the crashed server wrote it: same pid now, but another start time.
    writeFileSync(
      `${dir}.lock`,
      JSON.stringify({ pid, startTime: '1', since: new Date().toISOString(), command: 'server.mjs', dataDir: dir }),
    );
    lockDataDir(dir)();
    // A lock in the format before start times were recorded: judged by the command it names.
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid, since: new Date().toISOString(), command: '/srv/server.mjs' }));
    lockDataDir(dir)();
    // …and refused when that pid still runs the command the lock names.
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid, command: 'sleep 60' }));
    expect(() => lockDataDir(dir)).toThrow(DatabaseInUseError);
  });

  it('refuses while the recorded start time matches the running process', () => {
    const dir = join(root, 'parent');
    const parent = procStat(process.ppid)!;
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.ppid, startTime: parent.startTime, command: 'vitest' }));
    expect(() => lockDataDir(dir)).toThrow(`is in use by process ${process.ppid} (vitest)`);
  });
});
