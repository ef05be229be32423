exports.kind = 'cjs';
