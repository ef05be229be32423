import observations from '../../data/observations.json' with { type: 'json' };

/** The bundled sample readings, as stored: check their shape before trusting them. */
export function loadObservations(): unknown {
	return observations;
}
