// Route validators compiled on first use instead of at start-up. Fastify compiles every route's schemas with
// ajv when the app becomes ready: ~55 ms of the CLI's ~270 ms start-up CPU in the profile, for routes most runs
// never call. Fastify's own compiler (@fastify/ajv-compiler, with our `ajv` options) still does the work, so the
// validators and their error objects are the same; only the moment changes. A route's first validated request
// pays its compile (about 1-10 ms, the first one in the process the most). `compileAll` compiles the rest now:
// the tests call it so that a broken schema fails the suite rather than a user's first request.
//
// Fastify treats any compiler given this way as custom, and then no longer lower-cases the keys of `headers`
// schemas: no route declares one; one that does must write its header names in lower case.
import ajvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

type RouteCompiler = FastifySchemaCompiler<unknown>;
type RouteSchema = Parameters<RouteCompiler>[0];
type Validator = ReturnType<RouteCompiler>;
/** What Fastify calls once per app (and per encapsulated context that adds shared schemas). */
type BuildValidator = (externalSchemas: Record<string, unknown>, ajvOptions: unknown) => RouteCompiler;
// Fastify's typings give this option the signature of ajv's compile, not the one Fastify calls it with.
type BuildValidatorOption = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator'];

export interface DeferredValidation {
  /** For Fastify's `schemaController.compilersFactory.buildValidator`. */
  buildValidator: BuildValidatorOption;
  /** Compiles every validator not compiled yet; throws the first schema error. */
  compileAll(): void;
}

export function deferredValidation(): DeferredValidation {
  // The real thing, as Fastify builds it when given no factory.
  const buildAjvValidator = ajvCompiler() as unknown as BuildValidator;
  const pending = new Set<() => void>();

  const buildValidator: BuildValidator = (externalSchemas, ajvOptions) => {
    let compiler: RouteCompiler | undefined;
    return (route: RouteSchema) => {
      let compiled: Validator | undefined;
      const compile = (): Validator => {
        if (!compiled) {
          compiler ??= buildAjvValidator(externalSchemas, ajvOptions);
          compiled = compiler(route);
          pending.delete(compile);
        }
        return compiled;
      };
      pending.add(compile);
      // Fastify reads a failed validation's errors from the function it was given, so they are copied across.
      const validate: Validator = (data: unknown) => {
        const real = compile();
        const result = real(data);
        validate.errors = real.errors;
        return result;
      };
      return validate;
    };
  };

  return {
    buildValidator: buildValidator as unknown as BuildValidatorOption,
    compileAll() {
      for (const compile of [...pending]) compile();
    },
  };
}
