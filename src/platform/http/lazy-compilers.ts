// Compiling a route's validators and serializers when the route is first used, not when the
// app starts. The catalogue has about 400 routes: compiling all of their schemas (ajv and
// fast-json-stringify) took 2.3 s of the 3.1 s a test app needed to start (measured with
// --cpu-prof), and a test file calls a handful of them. The service itself compiles at start
// (BuildOptions.compileSchemas), so a schema that does not compile stops it before it
// listens; the test that starts the real service, and the security suite that calls every
// route, compile them all.

/** An ajv validate function as Fastify calls it: (data, ajv's data context), `errors` after. */
// biome-ignore lint/suspicious/noExplicitAny: ajv types its data context; Fastify passes it through.
type Validate = ((data: unknown, context?: any) => unknown) & { errors?: unknown };

/**
 * A validator that compiles on its first call. It carries `schemaEnv` like an ajv function,
 * so Fastify hands it the parent data (ajv may then replace a coerced root value).
 */
export function lazyValidator(compile: () => Validate): Validate {
  let real: Validate | undefined;
  const validate: Validate & { schemaEnv?: true } = (data, context) => {
    real ??= compile();
    const valid = real(data, context);
    validate.errors = real.errors;
    return valid;
  };
  validate.schemaEnv = true;
  return validate;
}

/** A serializer that builds on its first call. */
export function lazySerializer(build: () => (data: unknown) => string): (data: unknown) => string {
  let real: ((data: unknown) => string) | undefined;
  return (data) => {
    real ??= build();
    return real(data);
  };
}
