/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { controller, kinds, type ApplyObject, type Manager, type Reconciled } from '@opgen/runtime';
import { OvhNginx } from '../api/v1/ovhnginx_types.js';

const IMAGE = 'nginx:1.27';

type Nginx = Reconciled<OvhNginx, true>;

// +kubebuilder:rbac:groups=tutorials.ovhcloud.com,resources=ovhnginxes,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=tutorials.ovhcloud.com,resources=ovhnginxes/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=tutorials.ovhcloud.com,resources=ovhnginxes/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=core,resources=services;configmaps,verbs=get;list;watch;create;update;patch;delete

/**
 * Registers the OvhNginx controller. Its reconcile server-side applies the nginx config,
 * Deployment and Service the spec describes: apply creates what is missing and changes only
 * the fields this controller owns, so the same call serves creation and every later spec
 * change. Owning them means a change to any of them (say, someone deletes the Service)
 * brings their OvhNginx back to reconcile, which puts them back. Deletion needs no code:
 * `ctx.apply` makes the OvhNginx their controller owner, and the garbage collector removes
 * them with it.
 */
export function setupOvhNginxController(mgr: Manager): void {
  controller(mgr)
    .for(OvhNginx)
    .owns(kinds.Deployment)
    .owns(kinds.Service)
    .owns(kinds.ConfigMap)
    .reconcile(async (nginx, ctx) => {
      await ctx.apply(kinds.ConfigMap, configFor(nginx));
      await ctx.apply(kinds.Deployment, deploymentFor(nginx));
      await ctx.apply(kinds.Service, serviceFor(nginx));
      const { replicaCount, port } = nginx.spec;
      await ctx.status.setCondition({ type: 'Ready', status: 'True', reason: 'Applied', message: `nginx runs ${replicaCount} replicas on port ${port}` });
    });
}

function labelsFor(nginx: Nginx): Record<string, string> {
  return { 'app.kubernetes.io/name': 'nginx', 'app.kubernetes.io/instance': nginx.metadata.name };
}

function metadataFor(nginx: Nginx) {
  return { name: nginx.metadata.name, labels: labelsFor(nginx) };
}

/** nginx's image listens on port 80; this server block makes it listen on the spec's port. */
function configFor(nginx: Nginx): ApplyObject<kinds.ConfigMap> {
  const conf = `server {\n  listen ${nginx.spec.port};\n  location / {\n    root /usr/share/nginx/html;\n  }\n}\n`;
  return { metadata: metadataFor(nginx), data: { 'default.conf': conf } };
}

function deploymentFor(nginx: Nginx): ApplyObject<kinds.Deployment> {
  const labels = labelsFor(nginx);
  return {
    metadata: metadataFor(nginx),
    spec: {
      replicas: nginx.spec.replicaCount,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: IMAGE,
              ports: [{ name: 'http', containerPort: nginx.spec.port, protocol: 'TCP' }],
              volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true }],
            },
          ],
          volumes: [{ name: 'config', configMap: { name: nginx.metadata.name } }],
        },
      },
    },
  };
}

function serviceFor(nginx: Nginx): ApplyObject<kinds.Service> {
  return {
    metadata: metadataFor(nginx),
    spec: {
      type: 'LoadBalancer',
      selector: labelsFor(nginx),
      ports: [{ name: 'http', port: nginx.spec.port, targetPort: 'http', protocol: 'TCP' }],
    },
  };
}
