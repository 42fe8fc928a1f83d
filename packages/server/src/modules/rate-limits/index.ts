// Public surface of the rate-limits module.
export { createRateLimiter, type RateLimiter, type RateLimitRule } from "./rate-limits.service.js";
