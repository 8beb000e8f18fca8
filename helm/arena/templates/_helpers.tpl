{{/*
The chart name, or nameOverride.
*/}}
{{- define "arena.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
A fully qualified app name, at most 63 characters (the DNS label limit). A release name that
already contains the chart name is used as is.
*/}}
{{- define "arena.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Chart name and version, for the helm.sh/chart label.
*/}}
{{- define "arena.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "arena.labels" -}}
helm.sh/chart: {{ include "arena.chart" . }}
{{ include "arena.selectorLabels" . }}
{{- if .Chart.AppVersion }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: caper-arena
{{- end }}

{{/*
Selector labels.
*/}}
{{- define "arena.selectorLabels" -}}
app.kubernetes.io/name: {{ include "arena.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
The name of one component: (list $ "gateway") -> "<fullname>-gateway", at most 63 characters.
The prefix is shortened, never the suffix, so that components never share a name.
*/}}
{{- define "arena.componentName" -}}
{{- $suffix := index . 1 }}
{{- $prefix := include "arena.fullname" (index . 0) | trunc (int (sub 62 (len $suffix))) | trimSuffix "-" }}
{{- printf "%s-%s" $prefix $suffix }}
{{- end }}

{{/*
Labels and selector labels of one component: (list $ "gateway").
*/}}
{{- define "arena.componentLabels" -}}
{{ include "arena.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "arena.componentSelectorLabels" -}}
{{ include "arena.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/*
The ServiceAccount the arena pods run as.
*/}}
{{- define "arena.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "arena.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/*
The arena image reference.
*/}}
{{- define "arena.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{/*
The in-chart Redis: its StatefulSet (short enough for the controller-revision-hash label) and
Service names.
*/}}
{{- define "arena.redis.fullname" -}}
{{- printf "%s-redis" (include "arena.fullname" . | trunc 46 | trimSuffix "-") }}
{{- end }}

{{/*
The chart's own Secret, and whether it is needed: for the admin token unless an existing Secret
holds it, and for an external Redis URL given as a value.
*/}}
{{- define "arena.secretName" -}}
{{- include "arena.fullname" . }}
{{- end }}

{{- define "arena.adminTokenSecretName" -}}
{{- .Values.adminToken.existingSecret | default (include "arena.secretName" .) }}
{{- end }}

{{- define "arena.storesRedisUrl" -}}
{{- if and (not .Values.redis.enabled) (not .Values.externalRedis.existingSecret) }}true{{ end }}
{{- end }}

{{/*
REDIS_URL, which every arena process reads: the in-chart Redis, or the external one from a Secret
(its URL may carry a password).
*/}}
{{- define "arena.redisUrlEnv" -}}
- name: REDIS_URL
{{- if .Values.redis.enabled }}
  value: {{ printf "redis://%s:6379/0" (include "arena.redis.fullname" .) | quote }}
{{- else if .Values.externalRedis.existingSecret }}
  valueFrom:
    secretKeyRef:
      name: {{ .Values.externalRedis.existingSecret | quote }}
      key: {{ .Values.externalRedis.existingSecretKey | quote }}
{{- else }}
  valueFrom:
    secretKeyRef:
      name: {{ include "arena.secretName" . | quote }}
      key: redis-url
{{- end }}
{{- end }}

{{/*
Pod annotations that roll the pods when the Secret's inputs change.
*/}}
{{- define "arena.checksumAnnotation" -}}
checksum/secret: {{ dict "token" .Values.adminToken "redis" .Values.externalRedis | toJson | sha256sum }}
{{- end }}

{{/*
Security contexts. The pod: a fixed non-root UID/GID and the RuntimeDefault seccomp profile.
*/}}
{{- define "arena.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .runAsUser }}
runAsGroup: {{ .runAsGroup }}
fsGroup: {{ .fsGroup }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
Every container: read-only root filesystem, no privilege escalation, no capabilities.
*/}}
{{- define "arena.containerSecurityContext" -}}
runAsNonRoot: true
privileged: false
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/*
A worker container that runs hosted bots in bubblewrap: as locked down as every container, but
for the three things bubblewrap needs (namespaces and mounts past seccomp, a /proc it may mount
again). AppArmor is relaxed by the pod's annotation, which every Kubernetes version reads.
*/}}
{{- define "arena.sandboxContainerSecurityContext" -}}
runAsNonRoot: true
privileged: false
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
seccompProfile:
  type: Unconfined
procMount: Unmasked
{{- end }}

{{/*
Scheduling of one component's pods: its nodeSelector, tolerations and affinity values.
*/}}
{{- define "arena.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/*
The pod-level settings the arena's own pods share.
*/}}
{{- define "arena.podCommon" -}}
serviceAccountName: {{ include "arena.serviceAccountName" . }}
automountServiceAccountToken: false
enableServiceLinks: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- include "arena.podSecurityContext" .Values.podSecurityContext | nindent 2 }}
{{- end }}

{{/*
/tmp, the only writable path of the arena containers.
*/}}
{{- define "arena.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end }}

{{- define "arena.tmpVolumeMount" -}}
- name: tmp
  mountPath: /tmp
{{- end }}

{{/*
NetworkPolicy "from" entries: the peers given, or none (anyone) when the list is empty. With
peers, the release's own pods are always allowed too.
*/}}
{{- define "arena.networkPolicyFrom" -}}
{{- $root := index . 0 }}
{{- $peers := index . 1 }}
{{- if $peers }}
from:
  - podSelector:
      matchLabels:
        {{- include "arena.selectorLabels" $root | nindent 8 }}
  {{- toYaml $peers | nindent 2 }}
{{- end }}
{{- end }}

{{/*
Backups: the claim holding the files, and what the backup and restore pods share.
*/}}
{{- define "arena.backupClaimName" -}}
{{- .Values.backup.persistence.existingClaim | default (include "arena.componentName" (list . "backups")) }}
{{- end }}

{{- define "arena.backupPod" -}}
{{- $ := index . 0 -}}
{{- include "arena.podCommon" $ }}
restartPolicy: Never
volumes:
  {{- include "arena.tmpVolume" $ | nindent 2 }}
  - name: backups
    persistentVolumeClaim:
      claimName: {{ include "arena.backupClaimName" $ }}
{{- with include "arena.scheduling" $.Values.backup }}{{ . }}{{ end }}
{{- end }}

{{- define "arena.backupContainer" -}}
image: {{ include "arena.image" . | quote }}
imagePullPolicy: {{ .Values.image.pullPolicy }}
env:
  {{- include "arena.redisUrlEnv" . | nindent 2 }}
  - name: BACKUP_DIR
    value: /backups
securityContext:
  {{- include "arena.containerSecurityContext" . | nindent 2 }}
resources:
  {{- toYaml .Values.backup.resources | nindent 2 }}
volumeMounts:
  {{- include "arena.tmpVolumeMount" . | nindent 2 }}
  - name: backups
    mountPath: /backups
{{- end }}
