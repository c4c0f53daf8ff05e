import openapiTS, { astToString } from 'openapi-typescript';
import { createTestApp } from '../../test/app-harness.js';

/** Where the SDK keeps the types generated from Herald's OpenAPI document. */
export const GENERATED_FILE = new URL('../src/generated/openapi.ts', import.meta.url);

const HEADER = `/**
 * Generated from the OpenAPI document Herald serves (/openapi.json) by openapi-typescript:
 * \`npm run sdk:generate\`. Do not edit; the suite fails when it is not up to date
 * (sdk/test/generated.test.ts).
 */
`;

/** The SDK's types as Herald's current document makes them. */
export async function generatedTypes(): Promise<string> {
  const t = await createTestApp('sqlite');
  try {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    return HEADER + astToString(await openapiTS(document));
  } finally {
    await t.close();
  }
}
