/**
 * Services shared by tools beyond the runtime itself. Later layers (persistence store, code mode)
 * add fields here; tools receive them through ToolContext so nothing is a module-level singleton.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by later layers
export interface Services {}
