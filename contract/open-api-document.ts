/**
 * The open API's OpenAPI 3.1 document (https://spec.openapis.org/oas/v3.1.0), generated from the contract's zod
 * schemas (contract/open-api.ts) with `z.toJSONSchema` (JSON Schema 2020-12, the dialect OpenAPI 3.1 uses), so the
 * document cannot drift from what the platform checks. The gateway serves it at `/openapi.json`
 * (OPEN_API_DOCUMENT_PATH); tests validate it with a maintained OpenAPI validator and call the API with the typed
 * client (clients/open-api.ts) against it.
 */
import { z } from 'zod';
import './zod-locale.ts';
import {
  OPEN_API_MAX_SKEW_SECONDS,
  OpenApiPaths,
  OpenEvidenceView,
  OpenFileQuery,
  OpenHashBody,
  OpenSaveData,
} from './open-api.ts';

/** A JSON Schema object as z.toJSONSchema gives it, without its `$schema` (OpenAPI sets the dialect once). */
type JsonSchema = Record<string, unknown>;

/** `schema` as JSON Schema 2020-12 for requests (`input`) or answers (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return rest;
}

/** The envelope `{code, msg, data}` around `data`. */
function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['code', 'msg', 'data'],
    properties: {
      code: { type: 'integer', description: '与 HTTP 状态码相同' },
      msg: { type: 'string', description: '中文提示' },
      data,
    },
  };
}

const errorAnswer = {
  description: '拒绝：签名错误、请求过期、nonce 重复、参数错误等（msg 为中文原因）',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

/** The operation-level security and error answers every signed call shares. */
function signedOperation(op: Record<string, unknown>, success: string): Record<string, unknown> {
  return {
    ...op,
    security: [{ appId: [], timestamp: [], nonce: [], signature: [] }],
    responses: {
      '200': {
        description: '成功',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${success}` } } },
      },
      '400': errorAnswer,
      '401': errorAnswer,
      '403': errorAnswer,
      '409': errorAnswer,
      '413': errorAnswer,
      '429': errorAnswer,
    },
  };
}

/** The query parameters of `schema`'s properties. */
function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  const s = jsonSchema(schema, 'input') as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(s.properties).map(([name, p]) => ({
    name,
    in: 'query',
    required: s.required?.includes(name) ?? false,
    schema: p,
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
  }));
}

/** OpenAPI path template of a Fastify path (`:name` → `{name}`). */
function openApiPath(fastifyPath: string): string {
  return fastifyPath.replace(/:([A-Za-z]+)/g, '{$1}');
}

/**
 * The document. `serverUrl` is the site's origin (and deployment prefix, if any) the `servers` entry names.
 * @returns a plain JSON-serialisable object
 */
export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const apiKey = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    info: {
      title: '存证云开放接口',
      version: '1.0.0',
      description: [
        '已认证企业以 AppID 和 SecurityKey 签名调用。签名串为以下五项以换行符（\\n）连接：',
        'HTTP 方法（大写）、自 /api/ 起的路径及原样查询串、X-CZ-Timestamp（Unix 秒）、X-CZ-Nonce、',
        '请求体的 SHA-256（小写十六进制，无请求体时为空串的哈希）。以 SecurityKey 为密钥计算 HMAC-SHA256，',
        `Base64 编码后放入 X-CZ-Signature。时间戳与平台时钟相差超过 ${OPEN_API_MAX_SKEW_SECONDS} 秒、`,
        '或 nonce 重复使用的请求将被拒绝。',
      ].join(''),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: serverUrl }],
    paths: {
      [OpenApiPaths.file]: {
        post: signedOperation(
          {
            operationId: 'saveFile',
            summary: '上传文件保全（带设备信息时为 App 取证）',
            parameters: queryParameters(OpenFileQuery),
            requestBody: {
              required: true,
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
              },
            },
          },
          'SaveEnvelope',
        ),
      },
      [OpenApiPaths.hash]: {
        post: signedOperation(
          {
            operationId: 'saveHash',
            summary: '哈希保全（文件不离开调用方）',
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/HashBody' } } },
            },
          },
          'SaveEnvelope',
        ),
      },
      [openApiPath(OpenApiPaths.view)]: {
        get: signedOperation(
          {
            operationId: 'getEvidence',
            summary: '查询本企业的一条证据',
            parameters: [
              { name: 'baoquan', in: 'path', required: true, schema: { type: 'string', maxLength: 64 } },
            ],
          },
          'EvidenceEnvelope',
        ),
      },
    },
    components: {
      securitySchemes: {
        appId: apiKey('X-CZ-AppId', '认证信息页显示的 AppID'),
        timestamp: apiKey('X-CZ-Timestamp', 'Unix 时间（秒）'),
        nonce: apiKey('X-CZ-Nonce', '16–64 位 [A-Za-z0-9_-]，不可重复使用'),
        signature: apiKey('X-CZ-Signature', 'HMAC-SHA256 签名的 Base64'),
      },
      schemas: {
        HashBody: jsonSchema(OpenHashBody, 'input'),
        SaveData: jsonSchema(OpenSaveData, 'output'),
        EvidenceView: jsonSchema(OpenEvidenceView, 'output'),
        SaveEnvelope: envelope({ $ref: '#/components/schemas/SaveData' }),
        EvidenceEnvelope: envelope({ $ref: '#/components/schemas/EvidenceView' }),
        ErrorEnvelope: envelope({ type: 'null' }),
      },
    },
  };
}
