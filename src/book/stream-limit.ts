/**
 * How much of each output stream a run keeps by default. Its own module: the harness faces and the
 * chef's verify name it at load, and importing it from execute.ts would load execa (some 150
 * modules) before any command runs.
 */
export const DEFAULT_STREAM_LIMIT = 1024 * 1024
