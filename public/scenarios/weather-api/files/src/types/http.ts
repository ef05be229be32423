/** A request as the handlers see it; any framework's request maps onto this. */
export interface ApiRequest {
	method: string;
	path: string;
	query: Record<string, string | undefined>;
}

export interface ApiResponse {
	status: number;
	body: unknown;
}

export type Handler = (request: ApiRequest) => ApiResponse;
