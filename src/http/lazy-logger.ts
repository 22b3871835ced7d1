// Fastify gives every request a child logger. Making a pino child (bindings, serializers, redaction) cost
// about a tenth of a small request's CPU in the bench, though at the default level a served request logs
// nothing. This child is made on first use instead; a request that logs gets the same child as before.
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

type LogMethod = (...args: unknown[]) => void;

class LazyChildLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made ? this.made.level : (this.options.level ?? this.parent.level);
  }
  set level(level: string) {
    this.real.level = level;
  }

  fatal(...args: unknown[]): void {
    (this.real.fatal as LogMethod)(...args);
  }
  error(...args: unknown[]): void {
    (this.real.error as LogMethod)(...args);
  }
  warn(...args: unknown[]): void {
    (this.real.warn as LogMethod)(...args);
  }
  info(...args: unknown[]): void {
    (this.real.info as LogMethod)(...args);
  }
  debug(...args: unknown[]): void {
    (this.real.debug as LogMethod)(...args);
  }
  trace(...args: unknown[]): void {
    (this.real.trace as LogMethod)(...args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

export function lazyChildLogger(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
