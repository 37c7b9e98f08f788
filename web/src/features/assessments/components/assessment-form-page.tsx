export { default } from '@/features/placeholder/components/placeholder-page';
