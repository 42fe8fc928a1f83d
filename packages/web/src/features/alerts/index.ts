// What other features may use of the alerts section: the project's notification channels.
export { channelsQuery } from "./api";
