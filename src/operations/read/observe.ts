import { BrowserMeshError, ErrorCodes, invalidArgument } from '../../errors.js';
import type { PageOperationContext } from '../../engine/runtime.js';
import { observationsOf } from '../../observability/capture.js';
import { readObservations, type ObserveResult } from '../../observability/read.js';
import { checkedRequest, requestDetails, type RequestDetails } from '../../observability/request-details.js';
import { METADATA_ONLY_SOURCES, type ObserveSource } from '../../observability/types.js';

export interface ObserveInput {
  source: ObserveSource;
  sinceEventId?: number | undefined;
  limit?: number | undefined;
  includeText?: boolean | undefined;
}

/**
 * Reads one observability source of a page. Runs on the session queue so it sees everything the
 * operations accepted before it caused. Refuses `includeText` for network sources rather than
 * returning a metadata-only answer that looks complete.
 */
export function observe(ctx: PageOperationContext, input: ObserveInput): ObserveResult {
  const config = ctx.config;
  if (input.includeText && METADATA_ONLY_SOURCES.has(input.source)) {
    throw invalidArgument('includeText', `the ${input.source} source has no text; omit includeText`);
  }
  const limit = input.limit ?? config.observabilityPageSize;
  if (limit > config.observabilityPageSize) {
    throw invalidArgument(
      'limit',
      `must be at most ${config.observabilityPageSize} (BROWSERMESH_OBSERVABILITY_PAGE_SIZE)`,
    );
  }
  const observations = observationsOf(ctx.page);
  if (!observations) {
    throw new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'Observability capture is not enabled for this runtime',
      {
        details: { field: 'source' },
      },
    );
  }
  return readObservations(
    observations,
    {
      source: input.source,
      sinceEventId: input.sinceEventId ?? 0,
      limit,
      includeText: input.includeText ?? false,
    },
    config.observabilityResponseBytes,
  );
}

/** One network request in detail (browser_observe with requestId): headers and bounded text bodies, redacted. */
export async function observeRequest(ctx: PageOperationContext, requestId: string): Promise<RequestDetails> {
  const observations = observationsOf(ctx.page);
  if (!observations) {
    throw new BrowserMeshError(
      ErrorCodes.NOT_SUPPORTED,
      'Observability capture is not enabled for this runtime',
    );
  }
  const request = checkedRequest(observations.request(requestId));
  return requestDetails(requestId, request, {
    maxStringChars: ctx.config.observabilityStringChars,
    maxBodyChars: Math.floor(ctx.config.observabilityResponseBytes / 4),
  });
}
