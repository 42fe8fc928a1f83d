// Public surface of config/: the parser, the Config type and the documented knobs.
export {
  type Config,
  ConfigError,
  type Knob,
  knobs,
  type LogLevel,
  loadConfig,
  type TrustProxy,
} from "./config.js";
export { type CliEnvironment, loadCliEnvironment } from "./cli.js";
