// Public surface of the api-keys module.
export { apiKeysRoutes } from "./api-keys.routes.js";
export { type ApiKeysService, createApiKeysService } from "./api-keys.service.js";
export { createKeyAuthenticator, type KeyAuthenticator } from "./key-authenticator.js";
export { generateSecret, hashSecret, looksLikeSecret } from "./key-format.js";
