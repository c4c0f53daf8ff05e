import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILE, generatedTypes } from './openapi-types.js';

// `npm run sdk:generate`: rewrites sdk/src/generated/openapi.ts from the document Herald serves.
writeFileSync(GENERATED_FILE, await generatedTypes());
console.log(`wrote ${fileURLToPath(GENERATED_FILE)}`);
