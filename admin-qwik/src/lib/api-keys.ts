import './zod-csp';

export { API_KEY_SCOPES, type ApiKeyDto, type ApiKeyScope } from '../../../worker/src/features/api-keys/api-key.schema';
