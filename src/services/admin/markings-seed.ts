// The `marking_categories`, `markings` and `cbac_banner` seed keys (docs/directory.md, "Seed"). Checked:
// ids unique, every marking's category declared, members resolve.
import { Type, type Static } from '@sinclair/typebox';
import type { SeedCodec } from '../../seed/codec.js';
import { DIRECTORY } from './directory/part.js';
import { MemberSeed, memberProblems, memberSeeds, resolveMembers, seededGroupNames, seededUsernames } from './seed-refs.js';

export const BANNER_KEY = 'cbac-banner';
export interface BannerSetting {
  classification: string;
  textColor: string;
  backgroundColors: string[];
}

const CategorySeed = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    type: Type.Union([Type.Literal('CONJUNCTIVE'), Type.Literal('DISJUNCTIVE')], { default: 'CONJUNCTIVE' }),
    marking_type: Type.Union([Type.Literal('MANDATORY'), Type.Literal('CBAC')], { default: 'MANDATORY' }),
  },
  { additionalProperties: false },
);
type CategorySeed = Static<typeof CategorySeed>;

const MarkingSeed = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    category: Type.String({ minLength: 1 }),
    description: Type.Optional(Type.String()),
    members: Type.Array(MemberSeed, { default: [] }),
  },
  { additionalProperties: false },
);
type MarkingSeed = Static<typeof MarkingSeed>;

const BannerSeed = Type.Object(
  { classification: Type.String(), text_color: Type.String({ default: '#ffffff' }), background_colors: Type.Array(Type.String(), { default: ['#007a33'] }) },
  { additionalProperties: false },
);
type BannerSeed = Static<typeof BannerSeed>;

const duplicates = <T extends { id: string }>(part: readonly T[], path: string, what: string) =>
  part.flatMap((x, i) => (part.findIndex((o) => o.id === x.id) < i ? [`${path}[${i}].id: duplicate ${what} "${x.id}"`] : []));

const seedTime = (ms: number) => new Date(ms).toISOString();

export const markingCategoriesSeed: SeedCodec<CategorySeed[]> = {
  key: 'marking_categories',
  example: [{ id: 'sensitivity', name: 'Sensitivity', type: 'CONJUNCTIVE', marking_type: 'MANDATORY' }],
  schema: Type.Array(CategorySeed, { default: [] }),
  check: (part: CategorySeed[], path) => duplicates(part, path, 'marking category'),
  async apply(part, { store, clock }) {
    for (const c of part) {
      await store.part(DIRECTORY).putCategory({
        id: c.id,
        name: c.name,
        categoryType: c.type,
        markingType: c.marking_type,
        createdTime: seedTime(clock.now()),
        ...(c.description !== undefined ? { description: c.description } : {}),
      });
    }
  },
  async export({ store }) {
    return (await store.part(DIRECTORY).categories()).map((c) => ({
      id: c.id,
      name: c.name,
      ...(c.description !== undefined ? { description: c.description } : {}),
      type: c.categoryType,
      marking_type: c.markingType,
    }));
  },
};

export const markingsSeed: SeedCodec<MarkingSeed[]> = {
  key: 'markings',
  // Names the categories example and the groups example.
  example: [{ id: 'pii', name: 'PII', category: 'sensitivity', members: [{ group: 'analysts' }] }],
  schema: Type.Array(MarkingSeed, { default: [] }),
  check(part: MarkingSeed[], path, platform) {
    const categories = new Set(
      (Array.isArray(platform.marking_categories) ? (platform.marking_categories as Array<{ id?: unknown }>) : []).map((c) => String(c.id)),
    );
    const users = seededUsernames(platform);
    const groups = seededGroupNames(platform);
    return [
      ...duplicates(part, path, 'marking'),
      ...part.flatMap((m, i) =>
        categories.has(m.category) ? [] : [`${path}[${i}].category: no marking category "${m.category}" in platform.marking_categories`],
      ),
      ...part.flatMap((m, i) => memberProblems(m.members, `${path}[${i}].members`, users, groups)),
    ];
  },
  async apply(part, { store, clock, warn }) {
    const directory = store.part(DIRECTORY);
    for (const m of part) {
      await directory.putMarking({
        id: m.id,
        categoryId: m.category,
        name: m.name,
        createdTime: seedTime(clock.now()),
        ...(m.description !== undefined ? { description: m.description } : {}),
      });
      await directory.addMarkingMembers(m.id, await resolveMembers(store, m.members, (w) => warn(`platform.markings "${m.id}": ${w}`)));
    }
  },
  async export({ store, dropped }) {
    const directory = store.part(DIRECTORY);
    const out: MarkingSeed[] = [];
    for (const m of await directory.markings()) {
      const members = await memberSeeds(store, await directory.markingMembers(m.id), dropped, `markings "${m.id}"`);
      out.push({ id: m.id, name: m.name, category: m.categoryId, ...(m.description !== undefined ? { description: m.description } : {}), members });
    }
    return out;
  },
  summary: async (store) => [{ one: 'marking', many: 'markings', count: (await store.part(DIRECTORY).markings()).length }],
};

export const cbacBannerSeed: SeedCodec<BannerSeed | undefined> = {
  key: 'cbac_banner',
  example: { classification: 'UNCLASSIFIED', text_color: '#ffffff', background_colors: ['#007a33'] },
  schema: Type.Optional(BannerSeed),
  async apply(part, { store }) {
    if (part)
      await store.part(DIRECTORY).putSetting(BANNER_KEY, {
        classification: part.classification,
        textColor: part.text_color,
        backgroundColors: part.background_colors,
      } satisfies BannerSetting);
  },
  async export({ store }) {
    const b = (await store.part(DIRECTORY).setting(BANNER_KEY)) as BannerSetting | undefined;
    return b && { classification: b.classification, text_color: b.textColor, background_colors: b.backgroundColors };
  },
};
