/**
 * Sets zod 4's zh-CN locale once for the whole process, so that every schema failure without an explicit spec
 * message (max length, wrong type, unknown enum value …) is reported in Chinese instead of zod's English default
 * (spec 01 §5: every validation message is shown to the user in zh-CN). Explicit per-field messages still win.
 * Imported for its side effect by every contract module that builds schemas (checked by zod-locale.test.ts); not by
 * messages.ts, which every page loads: a page without a validating form loads no zod.
 */
import { z } from 'zod';

z.config(z.locales.zhCN());
