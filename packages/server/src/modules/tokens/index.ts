// Public surface of the tokens module: personal access tokens, their routes and their verifier.
export { personalTokensRoutes } from "./personal-tokens.routes.js";
export {
  createPersonalTokensService,
  MAX_LIVE_TOKENS_PER_USER,
  type PersonalTokensService,
} from "./personal-tokens.service.js";
