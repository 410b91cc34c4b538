import DefaultTheme from 'vitepress/theme';
import './wide-code.css';

export default DefaultTheme;
