import { BrowserMeshError, ErrorCodes } from '../errors.js';

/** The store's failures. Messages name the logical id at most: never a path, never state content. */

export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

export function quotaError(message: string, field: string, limit: number): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.LIMIT_EXCEEDED, message, {
    details: { field, limit },
    recoveryHint: 'Remove saved states you no longer need with browser_state_remove, or raise the limit.',
  });
}

export function notFound(stateId: string): BrowserMeshError {
  return new BrowserMeshError(ErrorCodes.STATE_NOT_FOUND, `No saved state ${stateId}`, {
    details: { stateId },
    recoveryHint: 'Call browser_state_list to see saved states.',
  });
}

export function corrupted(stateId: string, cause?: unknown): BrowserMeshError {
  return new BrowserMeshError(
    ErrorCodes.STATE_CORRUPTED,
    `Saved state ${stateId} is unreadable or not a BrowserMesh state`,
    {
      details: { stateId },
      cause,
      recoveryHint: 'Remove it with browser_state_remove and save it again.',
    },
  );
}

/** File system failures: the errno name only, never the path (it names the user's home). */
export function ioError(message: string, cause: unknown): BrowserMeshError {
  const errno = errnoOf(cause);
  return new BrowserMeshError(ErrorCodes.INTERNAL_ERROR, message, {
    cause,
    ...(errno ? { details: { reason: errno } } : {}),
  });
}
