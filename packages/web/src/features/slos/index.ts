// What other features may use of the SLO section: the card of SLOs covering an endpoint or consumer.
export { SloCoverageCard } from "./SloCoverageCard";
