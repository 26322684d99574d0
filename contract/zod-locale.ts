/**
 * Sets zod 4's zh-CN locale once for the whole process, so that every schema failure without an explicit spec
 * message (max length, wrong type, unknown enum value …) is reported in Chinese instead of zod's English default
 * (spec 01 §5: every validation message is shown to the user in zh-CN). Explicit per-field messages still win.
 * Imported for its side effect by contract/messages.ts and the contract modules that do not import it.
 */
import { z } from 'zod';

z.config(z.locales.zhCN());
