// English strings every figure shares; each figure's own are in its module (NlName.strings).
// Plain text only: never parsed as HTML.
export default {
  common: {
    badChoice: '{name} must be one of {choices} (got "{value}").',
    badVector: '{name} must be a comma-separated list of {length} numbers (got "{value}").',
    badNumber: '{name} must be a number from {min} to {max} (got "{value}").',
    inputWhole: '{label} takes a whole number from {min} to {max}.',
    inputRange: '{label} takes a number from {min} to {max}.',
    tooLong: '{name} takes at most {max} numbers in this figure.',
    coreError: 'The core could not compute this: {message}',
    error_zero_spread:
      '{op}: all values of a group are equal and eps is 0, so the division is by zero. Make eps positive or change a value.',
    error_not_divisible: '{op}: {argument} must divide the number of channels evenly.',
    error_not_finite: '{op}: {argument} holds a value that is not a finite number.',
    error_out_of_range: '{op}: {argument} is outside its allowed range.',
    error_overflow: '{op}: the result is too large for 32-bit floating point.',
    error_zero_vector: '{op}: a zero vector has no direction to normalize.',
    error_too_large: '{op}: this is more than the core computes in one call.',
    error_bad_shape: '{op}: {argument} has a shape this operation does not take.',
    loading: 'Loading the figure…',
    loadFailed: 'This figure could not start: the computation core did not load ({reason}).',
  },
};
