import { z } from 'zod';
import { isDeviceName } from '../config/devices.js';
import { DISPLAY_SPOOFING } from '../text.js';

/** Bounds on session labels: checked before any id, context or page is allocated. */
const MAX_NAME_CHARS = 128;
const MAX_METADATA_ENTRIES = 32;
const MAX_KEY_CHARS = 64;
const MAX_VALUE_CHARS = 256;
const MAX_METADATA_BYTES = 8192;
const DANGEROUS_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const codePoints = (text: string): number => Array.from(text).length;

export const SessionName = z
  .string()
  .min(1)
  .refine((v) => codePoints(v) <= MAX_NAME_CHARS, `at most ${MAX_NAME_CHARS} characters`)
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine((v) => !DISPLAY_SPOOFING.test(v), 'must not contain bidi or zero-width characters')
  .describe('A label, e.g. buyer.');

export const SessionMetadata = z
  .record(
    z
      .string()
      .min(1)
      .max(MAX_KEY_CHARS)
      .regex(/^[A-Za-z0-9_.:-]+$/, 'keys use letters, digits and _ . : -')
      .refine((k) => !DANGEROUS_KEYS.has(k), 'reserved key'),
    z
      .string()
      .refine((v) => codePoints(v) <= MAX_VALUE_CHARS, `at most ${MAX_VALUE_CHARS} characters`)
      .refine((v) => !CONTROL.test(v), 'must not contain control characters')
      .refine((v) => !DISPLAY_SPOOFING.test(v), 'must not contain bidi or zero-width characters'),
  )
  .refine((m) => Object.keys(m).length <= MAX_METADATA_ENTRIES, `at most ${MAX_METADATA_ENTRIES} entries`)
  .refine(
    (m) => Buffer.byteLength(JSON.stringify(m)) <= MAX_METADATA_BYTES,
    `at most ${MAX_METADATA_BYTES} bytes in total`,
  )
  .describe('String tags, e.g. {"role":"buyer"}.');

const Origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    const plainHost = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(url.hostname); // no wildcards
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      plainHost &&
      url.origin === value.replace(/\/$/, '')
    );
  } catch {
    return false;
  }
}, 'an exact http(s) origin such as https://app.example.test');

export const ContextSettingsSchema = z
  .object({
    device: z
      .string()
      .max(64)
      .refine(isDeviceName, "a device name from playwright-core's list, e.g. Pixel 7")
      .optional(),
    viewport: z
      .object({ width: z.number().int().min(100).max(7680), height: z.number().int().min(100).max(4320) })
      .strict()
      .optional(),
    deviceScaleFactor: z.number().min(0.5).max(4).optional(),
    locale: z
      .string()
      .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 tag like fr-FR')
      .optional(),
    timezoneId: z
      .string()
      .regex(/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+){0,2}$/, 'an IANA zone like Europe/Paris')
      .optional(),
    colorScheme: z.enum(['light', 'dark', 'no-preference']).optional(),
    reducedMotion: z.enum(['reduce', 'no-preference']).optional(),
    userAgent: z.string().min(1).max(512).optional(),
    ignoreHttpsErrors: z.boolean().optional(),
    geolocation: z
      .object({
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        accuracy: z.number().min(0).max(100000).optional(),
      })
      .strict()
      .optional(),
    permissions: z
      .array(z.object({ permission: z.literal('geolocation'), origin: Origin }).strict())
      .max(1)
      .optional()
      .describe('At most one grant: geolocation for one exact origin.'),
    trace: z.boolean().optional(),
  })
  .strict()
  .describe('Browser settings:')
  .meta({
    shape:
      '{device?: "Pixel 7", viewport?: {width: 100-7680, height: 100-4320}, deviceScaleFactor?: 0.5-4, locale?: "fr-FR", timezoneId?: "Europe/Paris", colorScheme?: "light"|"dark"|"no-preference", reducedMotion?: "reduce"|"no-preference", userAgent?, ignoreHttpsErrors?, geolocation?: {latitude, longitude, accuracy?}, permissions?: [{permission: "geolocation", origin}] (at most one), trace?: true}',
  });
