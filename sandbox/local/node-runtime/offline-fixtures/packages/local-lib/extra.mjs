export default 'extra';
