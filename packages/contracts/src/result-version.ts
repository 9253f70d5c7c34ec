// The platform JSON's schema version, apart from its zod schema (alignment-result.ts): the engine stamps
// it on every result, and the engine's thread need not load zod for a number.
export const RESULT_SCHEMA_VERSION = 1;
