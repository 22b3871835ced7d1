// The default log destination: lines leave stdout in batches, soon, in order, and none is lost at exit.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stdoutLines } from '../src/log-sink.js';

afterEach(() => vi.restoreAllMocks());

describe('stdoutLines', () => {
  it('writes the lines of a burst together, in order, within a few milliseconds', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    stdoutLines.write('one\n');
    stdoutLines.write('two\n');
    expect(writes).toEqual([]);
    await vi.waitFor(() => expect(writes).toEqual(['one\ntwo\n']), { timeout: 1000, interval: 5 });
  });

  it('writes at once past 64 KiB pending, and on flush', () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    stdoutLines.write('x'.repeat(64 * 1024) + '\n');
    expect(writes).toHaveLength(1);
    stdoutLines.write('y\n');
    stdoutLines.flush();
    expect(writes[1]).toBe('y\n');
  });

  it('writes a timed line as its head, the time in decimal and its tail, in order with the other lines', async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (writes.push(String(chunk)), true));
    stdoutLines.write('one\n');
    stdoutLines.writeTimed(Buffer.from('{"time":'), 0, '', Buffer.from('}\n'));
    stdoutLines.writeTimed(Buffer.from('{"time":'), 1796623863966, ',"m":"ü"', Buffer.from(',"x":"é"}\n'));
    stdoutLines.write('two\n');
    stdoutLines.flush();
    expect(writes.join('')).toBe('one\n{"time":0}\n{"time":1796623863966,"m":"ü","x":"é"}\ntwo\n');
  });

  it('loses no pending line when the process exits at once', () => {
    const script = "import { stdoutLines } from './src/log-sink.ts'; for (let i = 0; i < 3; i++) stdoutLines.write(`line ${i}\\n`); process.exit(0);";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('line 0\nline 1\nline 2\n');
  });
});
