/** The bound on one protocol step of a capture: its timeout and the call's cancellation. */
export interface StepOptions {
  timeout: number;
  signal?: AbortSignal | undefined;
}
