exports.legacyName = 'legacy';
exports.count = 0;
