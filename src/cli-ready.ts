// The process event the CLI emits once it listens and has printed its banner: the built launcher
// (src/cli-launcher.ts) saves V8's code cache then, when start-up has compiled what it needs.
export const CLI_READY_EVENT = 'platform-emulator:ready';

export function announceReady(): void {
  (process.emit as (event: string) => boolean)(CLI_READY_EVENT);
}
