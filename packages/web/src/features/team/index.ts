// The team feature's public surface: its styles, which the invitation pages share.
export { default as teamStyles } from "./Team.module.css";
