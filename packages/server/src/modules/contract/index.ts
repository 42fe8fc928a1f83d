// Public surface of the contract module: its assembly (inference job, scheduler, service) and routes.
export { type ContractModule, createContractModule } from "./contract.module.js";
export { contractRoutes } from "./contract.routes.js";
