/**
 * The SQL dialect the platform speaks (ARCHITECTURE "Scale-out"): SQLite for the embedded default, PostgreSQL when
 * DATABASE_URL names one. Its own module so migrations and helpers can name it without importing database.ts.
 */
import type { DatabaseTarget } from '../config.ts';

/** `'sqlite'` or `'postgres'`. */
export type Dialect = DatabaseTarget['dialect'];
