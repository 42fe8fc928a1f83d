// The apps feature's public surface: the create-app form that settings and setup both use.
export { CreateAppFields, useCreateApp } from "./CreateAppForm";
