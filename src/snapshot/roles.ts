/**
 * Role tables: how Chromium's accessibility roles map to the roles the snapshot shows, and which of
 * them are interactive, structural noise, or containers worth a line of their own.
 */

/** Chromium's internal role names → the (mostly ARIA) names the snapshot prints. */
const DISPLAY_ROLE: Record<string, string> = {
  RootWebArea: 'document',
  WebArea: 'document',
  Iframe: 'iframe',
  IframePresentational: 'iframe',
  image: 'img',
  Date: 'date',
  DateTime: 'datetime',
  InputTime: 'time',
  ColorWell: 'color',
  DisclosureTriangle: 'button',
  PopUpButton: 'combobox',
  ToggleButton: 'button',
  DescriptionList: 'list',
};

/** Input types whose Chromium role is too coarse (month and week are both DateTime). */
const INPUT_TYPE_ROLE: Record<string, string> = {
  month: 'month',
  week: 'week',
  'datetime-local': 'datetime',
  file: 'file',
};

export function displayRole(axRole: string, inputType: string | undefined): string {
  const byType = inputType === undefined ? undefined : INPUT_TYPE_ROLE[inputType];
  if (byType !== undefined && (axRole === 'DateTime' || axRole === 'button' || axRole === 'Date'))
    return byType;
  return DISPLAY_ROLE[axRole] ?? axRole;
}

/** Elements an agent acts on: they always get a ref. */
export const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'treeitem',
  'Date',
  'DateTime',
  'InputTime',
  'ColorWell',
  'DisclosureTriangle',
  'PopUpButton',
  'ToggleButton',
]);

/** Never clickable wrappers: a label is clickable (it activates its control) but the control has the ref. */
export const NEVER_CLICKABLE = new Set(['LabelText', 'Legend', 'RootWebArea', 'caption']);

/** Inputs whose content is their value: their inner editor, spin fields and picker buttons are dropped. */
export const VALUE_LEAF_ROLES = new Set([
  'textbox',
  'searchbox',
  'spinbutton',
  'slider',
  'Date',
  'DateTime',
  'InputTime',
  'ColorWell',
]);

/** Named content an agent may want to scope to, scroll to or read: it gets a ref too. */
export const NAMED_CONTENT_ROLES = new Set([
  'heading',
  'image',
  'table',
  'grid',
  'treegrid',
  'dialog',
  'alertdialog',
  'Iframe',
  'IframePresentational',
]);

/** Never shown; their information is already in their parent. */
export const DROPPED_ROLES = new Set(['InlineTextBox', 'ListMarker']);

/**
 * Structure without meaning for an agent: the node disappears and its children take its place.
 * A clickable one (onclick, cursor:pointer, tabindex) is kept as `clickable` instead.
 */
export const TRANSPARENT_ROLES = new Set([
  'none',
  'presentation',
  'generic',
  'paragraph',
  'strong',
  'emphasis',
  'LabelText',
  'Legend',
  'Section',
  'sectionheader',
  'sectionfooter',
  'time',
  'mark',
  'code',
  'subscript',
  'superscript',
  'insertion',
  'deletion',
  'Abbr',
  'Ruby',
  'RubyAnnotation',
  'blockquote',
  'Pre',
  'term',
  'definition',
  'rowgroup',
  'MenuListPopup',
  'caption',
  'Canvas',
  'figcaption',
  'LayoutTable',
  'LayoutTableRow',
  'LayoutTableCell',
  'Unknown',
]);

/** Roles that are transparent only while unnamed (a named form or region is a landmark). */
export const TRANSPARENT_UNLESS_NAMED = new Set(['form', 'region', 'group', 'figure', 'Details']);

/** Containers kept even with one child or no name: landmarks and the structures an agent navigates by. */
export const KEPT_CONTAINERS = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'search',
  'dialog',
  'alertdialog',
  'table',
  'grid',
  'treegrid',
  'row',
  'Iframe',
  'IframePresentational',
  'RootWebArea',
]);

/** Containers whose single text child reads best as their own label: `[status] Saved`. */
export const TEXT_LABEL_ROLES = new Set([
  'status',
  'alert',
  'log',
  'note',
  'tooltip',
  'article',
  'group',
  'region',
]);

/** Interactive-only mode keeps these as context lines around the interactive elements inside them. */
export const CONTEXT_ROLES = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'search',
  'form',
  'dialog',
  'alertdialog',
  'Iframe',
  'IframePresentational',
]);

/** Table cells: a row of simple cells is written on one line. */
export const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Autocomplete tokens whose values are as secret as a password. */
export const SECRET_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code|cc-number|cc-csc)\b/;

/** Inline formatting roles, for nodes the DOM snapshot has no layout facts about. */
export const INLINE_ROLES = new Set([
  'strong',
  'emphasis',
  'time',
  'mark',
  'code',
  'subscript',
  'superscript',
  'Abbr',
  'insertion',
  'deletion',
  'LabelText',
]);

/** Containers whose row children are put in aria-rowindex order. */
export const ROW_PARENTS = new Set(['grid', 'table', 'treegrid', 'rowgroup']);

/** Controls whose descendants are never shown (their value or name says it all). */
export const CHILDLESS_ROLES = new Set([
  ...VALUE_LEAF_ROLES,
  'checkbox',
  'radio',
  'switch',
  'Iframe',
  'IframePresentational',
]);

/** Roles Chromium gives a contenteditable root that has no role of its own (shown as a textbox). */
export const EDITOR_HOSTS = new Set(['generic', 'none', 'paragraph']);
