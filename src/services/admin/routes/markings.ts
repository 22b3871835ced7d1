// Markings, marking categories, marking members, the CBAC banner and marking restrictions
// (`@osdk/foundry.admin` 2.38.0; the banner and restrictions as the Python SDK 1.111.0 sends them;
// docs/directory.md, "Markings").
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Store } from '../../../store/store.js';
import type { Clock } from '../../../clock.js';
import { invalidArgument, notFound } from '../../../errors.js';
import { randomUuid } from '../../../ids.js';
import { DIRECTORY } from '../directory/part.js';
import type { MarkingRecord, MemberRecord } from '../directory/records.js';
import { categoryWire, markingWire, memberWire } from '../directory-wire.js';
import { markingsOfUser, membersOf } from '../principals.js';
import { pageOf } from '../../paging.js';
import { isTrue, Paging, Transitive } from '../query-schemas.js';
import { resolvePrincipals } from './groups.js';
import { BANNER_KEY, type BannerSetting } from '../markings-seed.js';

const READ = 'api:admin-read';
const WRITE = 'api:admin-write';
const P = '/api/v2/admin/markings';
const MarkingParams = Type.Object({ markingId: Type.String() });
const Preview = Type.Object({ preview: Type.Optional(Type.String()) });
const markingIdOf = (request: { params: unknown }) => ({ markingId: (request.params as { markingId?: string }).markingId ?? '' });
/** `markingIds` may come once or repeated in the query string. */
const MarkingIdsQuery = Type.Object({
  markingIds: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  displayType: Type.Optional(Type.String()),
  preview: Type.Optional(Type.String()),
});
const listOf = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

export function markingRoutes(parent: FastifyInstance, deps: { store: Store; clock: Clock }): void {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = deps;
  const directory = () => store.part(DIRECTORY);

  const existing = async (markingId: string): Promise<MarkingRecord> => {
    const marking = await directory().marking(markingId);
    if (!marking) throw notFound('MarkingNotFound', { markingId }).because(`no marking has the id ${markingId}`);
    return marking;
  };

  app.get(P, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Type.Object(Paging) },
    handler: async (request) => {
      const page = pageOf(await directory().markings(), request.query, 'markings');
      return { ...page, data: page.data.map(markingWire) };
    },
  });

  app.get(`${P}/:markingId`, {
    config: { auth: { kind: 'bearer', scope: READ, denied: { errorName: 'GetMarkingPermissionDenied', parameters: markingIdOf } } },
    schema: { params: MarkingParams, querystring: Preview },
    handler: async (request) => markingWire(await existing(request.params.markingId)),
  });

  app.post(`${P}/getBatch`, {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Preview, body: Type.Array(Type.Object({ markingId: Type.String() }), { maxItems: 500 }) },
    handler: async (request) => {
      const data: Record<string, ReturnType<typeof markingWire>> = {};
      for (const { markingId } of request.body) {
        const marking = await directory().marking(markingId);
        if (marking) data[markingId] = markingWire(marking);
      }
      return { data };
    },
  });

  app.post(P, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'CreateMarkingPermissionDenied', parameters: () => ({}) } } },
    schema: {
      querystring: Preview,
      body: Type.Object({
        initialRoleAssignments: Type.Array(Type.Object({ role: Type.String(), principalId: Type.String() })),
        initialMembers: Type.Array(Type.String()),
        name: Type.String(),
        description: Type.Optional(Type.String()),
        categoryId: Type.String(),
      }),
    },
    handler: async (request) => {
      const body = request.body;
      if (body.name.trim() === '') throw invalidArgument('MarkingNameIsEmpty').because('a marking needs a name');
      if (!(await directory().category(body.categoryId)))
        throw notFound('MarkingCategoryNotFound', { markingCategoryId: body.categoryId }).because(`no marking category has the id ${body.categoryId}`);
      if (!body.initialRoleAssignments.some((r) => r.role === 'ADMINISTER'))
        throw invalidArgument('CreateMarkingMissingInitialAdminRole').because('a new marking needs an ADMINISTER role assignment');
      const taken = (await directory().markings()).some((m) => m.categoryId === body.categoryId && m.name === body.name);
      if (taken)
        throw invalidArgument('MarkingNameInCategoryAlreadyExists', { displayName: body.name, categoryId: body.categoryId }).because(
          `category ${body.categoryId} has a marking "${body.name}" already`,
        );
      const members = await resolvePrincipals(store, body.initialMembers);
      const marking: MarkingRecord = {
        id: randomUuid(),
        categoryId: body.categoryId,
        name: body.name,
        createdTime: new Date(deps.clock.now()).toISOString(),
        ...(body.description !== undefined ? { description: body.description } : {}),
      };
      await directory().putMarking(marking);
      await directory().addMarkingMembers(marking.id, members);
      return markingWire(marking);
    },
  });

  app.put(`${P}/:markingId`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'ReplaceMarkingPermissionDenied', parameters: markingIdOf } } },
    schema: { params: MarkingParams, querystring: Preview, body: Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }) },
    handler: async (request) => {
      const old = await existing(request.params.markingId);
      if (request.body.name.trim() === '') throw invalidArgument('MarkingNameIsEmpty').because('a marking needs a name');
      const { description: _dropped, ...rest } = old;
      const marking: MarkingRecord = {
        ...rest,
        name: request.body.name,
        ...(request.body.description !== undefined ? { description: request.body.description } : {}),
      };
      await directory().putMarking(marking);
      return markingWire(marking);
    },
  });

  // Marking administrators only, says the package: api:admin-write.
  app.get(`${P}/:markingId/markingMembers`, {
    config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName: 'ListMarkingMembersPermissionDenied', parameters: markingIdOf } } },
    schema: { params: MarkingParams, querystring: Type.Object({ ...Transitive, ...Paging }) },
    handler: async (request) => {
      const marking = await existing(request.params.markingId);
      const transitive = isTrue(request.query.transitive);
      const direct = await directory().markingMembers(marking.id);
      let members: MemberRecord[] = direct;
      if (transitive) {
        const seen = new Map(direct.map((m) => [m.principalId, m]));
        for (const m of direct)
          if (m.principalType === 'GROUP')
            for (const below of await membersOf(directory(), m.principalId, true)) if (!seen.has(below.principalId)) seen.set(below.principalId, below);
        members = [...seen.values()];
      }
      // The package says the page size is ignored: one page of every member.
      const page = pageOf(members, { pageSize: Math.max(1, members.length) }, `markings/${marking.id}/markingMembers?transitive=${transitive}`);
      return { data: page.data.map(memberWire) };
    },
  });

  for (const [verb, errorName] of [
    ['add', 'AddMarkingMembersPermissionDenied'],
    ['remove', 'RemoveMarkingMembersPermissionDenied'],
  ] as const) {
    app.post(`${P}/:markingId/markingMembers/${verb}`, {
      config: { auth: { kind: 'bearer', scope: WRITE, denied: { errorName, parameters: markingIdOf } } },
      schema: { params: MarkingParams, body: Type.Object({ principalIds: Type.Array(Type.String(), { maxItems: 1000 }) }) },
      handler: async (request, reply) => {
        const marking = await existing(request.params.markingId);
        if (verb === 'add') await directory().addMarkingMembers(marking.id, await resolvePrincipals(store, request.body.principalIds));
        else await directory().removeMarkingMembers(marking.id, request.body.principalIds);
        return reply.code(204).send();
      },
    });
  }

  app.get('/api/v2/admin/markingCategories', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: Type.Object(Paging) },
    handler: async (request) => {
      const [categories, markings] = [await directory().categories(), await directory().markings()];
      const page = pageOf(categories, request.query, 'markingCategories');
      return {
        ...page,
        data: page.data.map((c) =>
          categoryWire(
            c,
            markings.filter((m) => m.categoryId === c.id).map((m) => m.id),
          ),
        ),
      };
    },
  });

  app.get('/api/v2/admin/markingCategories/:markingCategoryId', {
    config: {
      auth: {
        kind: 'bearer',
        scope: READ,
        denied: {
          errorName: 'GetMarkingCategoryPermissionDenied',
          parameters: (r) => ({ markingCategoryId: (r.params as { markingCategoryId?: string }).markingCategoryId ?? '' }),
        },
      },
    },
    schema: { params: Type.Object({ markingCategoryId: Type.String() }), querystring: Preview },
    handler: async (request) => {
      const id = request.params.markingCategoryId;
      const category = await directory().category(id);
      if (!category) throw notFound('MarkingCategoryNotFound', { markingCategoryId: id }).because(`no marking category has the id ${id}`);
      const markings = (await directory().markings()).filter((m) => m.categoryId === id).map((m) => m.id);
      return categoryWire(category, markings);
    },
  });

  app.get('/api/v2/admin/cbacBanner', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: MarkingIdsQuery },
    handler: async (request) => {
      const banner = ((await directory().setting(BANNER_KEY)) as BannerSetting | undefined) ?? {
        classification: 'UNCLASSIFIED',
        textColor: '#ffffff',
        backgroundColors: ['#007a33'],
      };
      const known = new Set((await directory().markings()).map((m) => m.id));
      const markings = [...new Set(listOf(request.query.markingIds))].filter((id) => known.has(id));
      return { classificationString: banner.classification, markings, textColor: banner.textColor, backgroundColors: banner.backgroundColors };
    },
  });

  app.get('/api/v2/admin/cbacMarkingRestrictions', {
    config: { auth: { kind: 'bearer', scope: READ } },
    schema: { querystring: MarkingIdsQuery },
    handler: async (request) => {
      const asked = [...new Set(listOf(request.query.markingIds))];
      const known = new Set((await directory().markings()).map((m) => m.id));
      const mine = new Set(await markingsOfUser(directory(), request.principal!.id));
      return {
        disallowedMarkings: [],
        impliedMarkings: [],
        requiredMarkings: [],
        userSatisfiesMarkings: asked.every((id) => mine.has(id)),
        isValid: asked.every((id) => known.has(id)),
      };
    },
  });
}
