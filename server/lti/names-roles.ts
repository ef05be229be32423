import { randomUUID } from 'node:crypto';
import type { LtiPlatform } from './lti-config.js';
import type { LtiContext, LtiStore } from './lti-store.js';
import { membershipScope, platformFetch, type PlatformTokens } from './platform-token.js';
import { newToken, tokenHash } from '../tokens.js';

const maxPages = 50;

export interface RosterResult {
	learners: number;
	added: number;
}

interface Member {
	user_id?: unknown;
	status?: unknown;
	roles?: unknown;
	name?: unknown;
	given_name?: unknown;
	family_name?: unknown;
}

/**
 * Names and Role Provisioning (NRPS 2.0): reads the course's members (following `Link:
 * rel="next"`) and makes every active learner a learner of the class, enrolled in the course,
 * so a grade can be sent for someone before their first launch. Learners added here get a token
 * nobody knows: their first launch gives them one.
 */
export async function syncRoster(
	store: LtiStore,
	tokens: PlatformTokens,
	platform: LtiPlatform,
	context: LtiContext,
	fetcher: typeof fetch = fetch
): Promise<RosterResult> {
	if (!context.membershipsUrl) throw new Error('this course offers no Names and Role service');
	let url: string | null = context.membershipsUrl;
	let learners = 0;
	let added = 0;
	for (let page = 0; url && page < maxPages; page++) {
		const response = await platformFetch(
			tokens,
			platform,
			[membershipScope],
			url,
			{ headers: { accept: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json' } },
			fetcher
		);
		if (!response.ok) throw new Error(`the roster service answered ${response.status}`);
		const body = (await response.json()) as { members?: unknown };
		const members = Array.isArray(body.members) ? (body.members as Member[]) : [];
		for (const member of members) {
			const roles = Array.isArray(member.roles) ? member.roles.map(String) : [];
			const isLearner = roles.some((role) => /(#|\/)Learner$/.test(role));
			const status = member.status === undefined ? 'Active' : member.status;
			if (
				typeof member.user_id !== 'string' ||
				!member.user_id ||
				!isLearner ||
				status !== 'Active'
			) {
				continue;
			}
			const user = {
				issuer: platform.issuer,
				clientId: platform.clientId,
				subject: member.user_id
			};
			let learnerId = await store.learnerOfUser(user.issuer, user.clientId, user.subject);
			if (!learnerId) {
				const name =
					(typeof member.name === 'string' && member.name.trim()) ||
					[member.given_name, member.family_name]
						.filter((part) => typeof part === 'string')
						.join(' ') ||
					`Learner ${member.user_id.slice(0, 8)}`;
				learnerId = await store
					.createPlatformLearner(
						user,
						{ id: randomUUID(), name: name.slice(0, 80) },
						tokenHash(newToken('tl_learner'))
					)
					.catch(async () => store.learnerOfUser(user.issuer, user.clientId, user.subject));
				if (!learnerId) continue;
				added++;
			}
			await store.enrol(platform.issuer, platform.clientId, context.contextId, learnerId);
			learners++;
		}
		url = nextLink(response.headers.get('link'));
	}
	return { learners, added };
}

function nextLink(header: string | null): string | null {
	if (!header) return null;
	for (const part of header.split(',')) {
		const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
		if (match?.[1]) return match[1];
	}
	return null;
}
